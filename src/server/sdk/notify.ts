import type { Server } from '@modelcontextprotocol/server';

/** Sends a notification of any method on the server's connection (apart from server.ts: it loads no SDK). */
export function sendNotification(server: Server, notification: { readonly method: string; readonly params?: object }): Promise<void> {
  return server.notification(notification as never);
}
