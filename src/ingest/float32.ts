// The shortest float32 decimals live in src/shared/float32.ts: the local service prints stored values with them too.
export { float32ToString, float32ToStringReference, writeFloat32 } from "../shared/float32.js";
