/**
 * Serves the demo web on loopback: each outlet on its own address (127.0.0.10–19), all on one port,
 * so each is its own host with its own robots.txt and pacing.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildNewsWeb, type NewsWeb } from "./news-web";
import { OUTLETS, WIRE } from "./outlets";

export interface DemoWebOutlet {
  readonly id: string;
  readonly publication: string;
  readonly origin: string;
}

export interface DemoWeb {
  /** The wire service first, then the nine outlets. */
  readonly outlets: readonly DemoWebOutlet[];
  readonly sources: NewsWeb["sources"];
  readonly syndicated: NewsWeb["syndicated"];
  readonly developing: NewsWeb["developing"];
  readonly revisions: NewsWeb["revisions"];
  readonly failures: NewsWeb["failures"];
  readonly days: NewsWeb["days"];
  /** Requests served, all hosts together. */
  requests(): number;
  close(): Promise<void>;
}

export interface DemoWebOptions {
  /** Port for every host; 0 (the default) lets the first host pick a free one. */
  readonly port?: number;
  /** The demo web's clock: the day's articles are published in the 22 hours before it, each earlier
   * day's in the 22 hours before the same time that day. */
  readonly anchor: Date;
  /** The first day (YYYY-MM-DD) the web has published on; default: the anchor's day. */
  readonly firstDay?: string;
}

function listen(host: string, port: number, handler: RequestListener): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

export async function startDemoWeb(opts: DemoWebOptions): Promise<DemoWeb> {
  const specs = [WIRE, ...OUTLETS];
  let requests = 0;
  const failedOnce = new Set<string>();
  let web: NewsWeb | undefined;
  const handler =
    (id: string): RequestListener =>
    (req, res) => {
      requests++;
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const route = web?.routes.get(id)?.get(path);
      if (!route) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      if (route.failFirst && !failedOnce.has(`${id}${path}`)) {
        failedOnce.add(`${id}${path}`);
        res.writeHead(503, { "content-type": "text/plain", "retry-after": "1" }).end("busy, try again");
        return;
      }
      res.writeHead(route.status, { "content-type": route.type }).end(route.body);
    };
  const servers: Server[] = [];
  try {
    // The first host settles the port (a fixed one, else a free one); the others share it.
    let port = opts.port ?? 0;
    for (const o of specs) {
      const host = `127.0.0.${o.octet}`;
      const s = await listen(host, port, handler(o.id)).catch((err) => {
        if (servers.length === 0 && port !== 0) return listen(host, 0, handler(o.id));
        throw err;
      });
      servers.push(s);
      port = (s.address() as AddressInfo).port;
    }
  } catch (err) {
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    throw err;
  }
  const port = (servers[0]!.address() as AddressInfo).port;
  const origins = new Map(specs.map((o) => [o.id, `http://127.0.0.${o.octet}:${port}`]));
  web = buildNewsWeb(origins, opts.anchor, opts.firstDay ? { firstDay: opts.firstDay } : {});
  return {
    outlets: specs.map((o) => ({ id: o.id, publication: o.publication, origin: origins.get(o.id)! })),
    sources: web.sources,
    syndicated: web.syndicated,
    developing: web.developing,
    revisions: web.revisions,
    failures: web.failures,
    days: web.days,
    requests: () => requests,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
