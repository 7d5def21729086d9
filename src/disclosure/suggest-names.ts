// "Did you mean" lives in internal/did-you-mean.ts (one module for every folder). This file only
// keeps the old import path alive while disclosure/ is being reorganised; delete it once nothing
// imports it.
export { suggestNames } from "../internal/index.js";
