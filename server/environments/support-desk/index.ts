export * from "./catalog";
export * from "./environment";
export * from "./destination";
export * from "./features";
export * from "./protected";
export * from "./ticket";
export * from "./tools";
