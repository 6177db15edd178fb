/**
 * The nginx configuration of docs/scaling.md for instances on this machine: 2026-07-28 requests and new
 * 2025-era sessions go round robin to any instance; a 2025-era session's later requests go to the instance
 * that opened it, named by its session id's prefix (`serveHttp({ route })`); when that instance is gone its
 * sessions are answered 404, so their clients open new ones. The multi-instance tests run this exact file.
 */

export interface Upstream {
  /** The instance's route: the prefix of the session ids it hands out (`a` in `a.6f1c...`). */
  readonly route: string;
  readonly port: number;
}

export interface NginxSetup {
  /** A folder of its own for nginx's pid, logs and temporary files. */
  readonly prefix: string;
  /** The port nginx listens on, on 127.0.0.1. */
  readonly port: number;
  readonly upstreams: readonly Upstream[];
  /** The user worker processes run as when nginx starts as root (they read and write under `prefix`). */
  readonly user?: string;
}

const ROUTE = /^[A-Za-z0-9_-]{1,64}$/;

function pinned(upstreams: readonly Upstream[]): string {
  const blocks = upstreams.map((u) => `  upstream mcp_${u.route} { server 127.0.0.1:${u.port}; keepalive 8; }`);
  const routes = upstreams.map((u) => `    ~^${u.route}\\. mcp_${u.route};`);
  return `${blocks.join('\n')}
  map $http_mcp_session_id $mcp_upstream {
    default mcp;
${routes.join('\n')}
  }`;
}

/** nginx.conf for running in the foreground (`nginx -p <prefix> -c <prefix>/nginx.conf`). */
export function nginxConfig(setup: NginxSetup): string {
  const bad = setup.upstreams.find((u) => !ROUTE.test(u.route));
  if (bad) throw new TypeError(`route must be letters, digits, '_' or '-'; got ${JSON.stringify(bad.route)}.`);
  const { prefix } = setup;
  return `${setup.user ? `user ${setup.user};\n` : ''}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream mcp {
${setup.upstreams.map((u) => `    server 127.0.0.1:${u.port} max_fails=0;`).join('\n')}
    keepalive 32;
  }
${pinned(setup.upstreams)}
  server {
    listen 127.0.0.1:${setup.port};
    location / {
      proxy_pass http://$mcp_upstream;
      error_page 502 = @session_gone;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_next_upstream error http_503 non_idempotent;
    }
    location @session_gone {
      if ($mcp_upstream = mcp) { return 502; }
      default_type application/json;
      return 404 '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}';
    }
  }
}
`;
}
