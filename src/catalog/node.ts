// Owns: loading catalogs from files and directories (the Node-only part of catalog; not in the root entry).
// Must not import: anything in src outside catalog/ and errors.ts.

export { fileKind, notRegularFileMessage } from "./file-kind.js";
export {
  type LoadCatalogOptions,
  type LoadedCatalog,
  loadCatalogFile,
  loadCatalogPaths,
  type SkippedFile,
} from "./load-catalog-file.js";
