import { Int32, McpServer, Param, RequestContext, Resource, Tool, type ServerEventBus, type TaskStore } from 'onemodelcontext';

/** The server every instance runs: tools that show which instance answered, long calls and multi-round input. */

export class ClusterDemo {
  /** Set once the server exists: `announce` publishes through it. */
  server?: McpServer;
  private news = 'nothing yet';

  constructor(private readonly route: string) {}

  @Resource('cluster://news', { description: 'The latest announcement, from whichever instance made it', mimeType: 'text/plain' })
  latest(): string {
    return this.news;
  }

  @Tool({
    description: 'Makes an announcement: every client subscribed to cluster://news hears of it, whatever instance it is connected to',
  })
  announce(@Param({ description: 'What to announce' }) text: string): string {
    this.news = `${text} (from instance ${this.route})`;
    this.server!.notifyResourceUpdated('cluster://news');
    return `announced on instance ${this.route}`;
  }

  @Tool({ description: 'Which instance answered this call', readOnly: true })
  whereami(): string {
    return `instance ${this.route} (pid ${process.pid})`;
  }

  @Tool({
    description: 'Counts down, one progress notification a second: stop its instance meanwhile and the call still completes',
    returns: String,
  })
  async countdown(@Param({ type: Int32, description: 'Seconds, 1 to 60' }) seconds: number, ctx: RequestContext): Promise<string> {
    const total = Math.min(Math.max(seconds, 1), 60);
    for (let left = total; left > 0; left--) {
      await ctx.reportProgress(total - left, total, `${left} s left on instance ${this.route}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    return `done on instance ${this.route}`;
  }

  @Tool({ description: 'Asks for a confirmation first (2026-07-28 multi-round input): each round may land on another instance' })
  confirm(@Param({ description: 'What to confirm' }) action: string, ctx: RequestContext): string {
    const answer = ctx.inputResponse('confirm') as { action?: string } | undefined;
    if (answer?.action !== 'accept') {
      ctx.requireInput(
        {
          confirm: {
            method: 'elicitation/create',
            params: { message: `Really ${action}?`, requestedSchema: { type: 'object', properties: {} } },
          },
        },
        { askedBy: this.route },
      );
    }
    return `${action}: asked by instance ${(ctx.requestState as { askedBy: string }).askedBy}, done by instance ${this.route}`;
  }
}

export function clusterServer(
  route: string,
  requestStateSecret: string | undefined,
  shared?: { eventBus: ServerEventBus; taskStore: TaskStore },
): McpServer {
  const demo = new ClusterDemo(route);
  const server = new McpServer(
    { name: 'cluster-demo', version: '1.0.0' },
    { requestStateSecret, eventBus: shared?.eventBus, taskStore: shared?.taskStore },
  ).add(demo);
  demo.server = server;
  return server;
}
