// Every generator's outputs. A generator is a module exporting a function that returns Output[]; add it here.
import type { Output } from "./output.js";
import { settingsOutputs } from "./settings.js";

export function allOutputs(): Output[] {
  return [...settingsOutputs()];
}
