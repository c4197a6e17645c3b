// Types of helpers.mjs for the TypeScript unit tests.
export function freshenActiveWorkflows(workspace: string, now?: number): void;
export function workbenchUrl(serverUrl: string, folder: string, options?: { extDev?: string; extTests?: string }): string;
