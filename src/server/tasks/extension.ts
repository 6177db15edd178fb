/** The tasks extension's identifier (SEP-2663); apart from handlers.ts, whose SDK imports the capabilities need not load. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
