// zod's locales/index.js re-exports all of its ~50 message locales; zod itself only ever applies English (its
// classic entry calls config(en())), and nothing here picks another. Keeping only `en` drops a fifth of the
// startup code. Resolved from node_modules/zod/v4/locales/ by scripts/bundle.mjs.
export { default as en } from "./en.js";
