/** Injection token of the resolved {@link McpModuleOptions}. */
export const MCP_MODULE_OPTIONS = Symbol.for('onemodelcontext:nest:options');
