// Owns: the local web inspector (catalog, search playground, cost, sessions, learned words) and its server.
export {
  type CatalogTool,
  type CatalogView,
  type CostView,
  createInspectorModel,
  type InspectorModel,
  type SearchView,
} from "./inspector-model.js";
export {
  type InspectorServer,
  type InspectorServerOptions,
  type SessionsView,
  type SessionView,
  startInspectorServer,
} from "./inspector-server.js";
