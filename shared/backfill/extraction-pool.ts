/**
 * Extraction on every core: a pool of worker threads, each decoding a page's bytes, running the
 * fetcher's own extractArticle and computing the dedup fingerprint (prepare-page.ts), or computing the
 * fingerprint of a text alone (`storytrail dedup`). The caller hands work ahead of using its result and
 * uses results in its own order (import-warc.ts and dataset-dedup.ts: file order), so what it stores
 * does not depend on the pool's size. A page goes over as its bytes (a copy: memcpy), not as decoded
 * text, whose structured clone cost the main thread ~0.7 ms a page (node --cpu-prof).
 */
import { Worker } from "node:worker_threads";
import type { FingerprintAhead } from "../dedup/dataset-dedup";
import type { Fingerprint } from "../dedup/fingerprint";
import type { PrepareAhead } from "./import-warc";
import type { PageJob, PreparedPage } from "./prepare-page";
import { extractionWorkerScript } from "./worker-bundle";

/** What a worker is asked (extraction-worker.ts answers each with its `id`). */
export type WorkerRequest =
  | { readonly kind: "page"; readonly job: PageJob }
  | { readonly kind: "fingerprint"; readonly text: string; readonly title: string | null };

interface Job {
  readonly id: number;
  readonly request: WorkerRequest;
  readonly resolve: (x: unknown) => void;
  readonly reject: (err: Error) => void;
}

type Reply = { id: number; result: unknown } | { id: number; error: string };

/** Jobs queued per worker besides the one it works on: keeps every worker busy between replies. */
const QUEUED_PER_WORKER = 3;

export class ExtractionPool implements PrepareAhead, FingerprintAhead {
  private readonly workers: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private next = 0;
  private failure: Error | null = null;
  readonly inFlight: number;

  /** A pool of `size` workers, each running the worker bundled once for all (worker-bundle.ts). */
  static async start(size: number): Promise<ExtractionPool> {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a pool needs at least one worker, not ${size}`);
    return new ExtractionPool(size, await extractionWorkerScript());
  }

  private constructor(size: number, script: string) {
    this.inFlight = size * (1 + QUEUED_PER_WORKER);
    for (let i = 0; i < size; i++) {
      const w = new Worker(script, { eval: true });
      w.on("message", (reply: Reply) => this.settle(w, reply));
      w.on("error", (err) => this.fail(err));
      this.workers.push(w);
    }
  }

  prepare(job: PageJob): Promise<PreparedPage> {
    return this.ask({ kind: "page", job }) as Promise<PreparedPage>;
  }

  fingerprint(text: string, title: string | null): Promise<Fingerprint> {
    return this.ask({ kind: "fingerprint", text, title }) as Promise<Fingerprint>;
  }

  private ask(request: WorkerRequest): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.next++, request, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const w of this.workers) {
      if (this.busy.has(w)) continue;
      const job = this.queue.shift();
      if (!job) return;
      this.busy.set(w, job);
      w.postMessage({ id: job.id, request: job.request });
    }
  }

  private settle(w: Worker, reply: Reply): void {
    const job = this.busy.get(w);
    this.busy.delete(w);
    if (job?.id === reply.id) {
      if ("error" in reply) job.reject(new Error(reply.error));
      else job.resolve(reply.result);
    }
    this.dispatch();
  }

  /** A worker that died takes the pool with it: every job waiting is refused with the reason. */
  private fail(err: Error): void {
    this.failure = new Error(`extraction worker failed: ${err.message}`);
    for (const job of [...this.busy.values(), ...this.queue.splice(0)]) job.reject(this.failure);
    this.busy.clear();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
