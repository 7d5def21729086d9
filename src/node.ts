// The `toolsift/node` entry: what needs Node's file system (loading catalog files and folders).
// Kept out of the root entry so the root runs anywhere (browsers, workers, edge runtimes).
export {
  type LoadCatalogOptions,
  type LoadedCatalog,
  loadCatalogFile,
  loadCatalogPaths,
  type SkippedFile,
} from "./catalog/node.js";
