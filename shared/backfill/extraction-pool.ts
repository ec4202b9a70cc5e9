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
  | {
      readonly kind: "fingerprints";
      readonly texts: readonly { readonly text: string; readonly title: string | null }[];
    };

interface Job {
  readonly id: number;
  readonly request: WorkerRequest;
  readonly resolve: (x: unknown) => void;
  readonly reject: (err: Error) => void;
}

type Reply = { id: number; result: unknown } | { id: number; error: string };

/**
 * Jobs a caller may have waiting per worker besides the one it works on. They wait in the worker's
 * own message queue, not here: a job held back until the worker's reply was read (one posted at a
 * time) left the worker idle while the main thread clustered, and woke it for every job
 * (`storytrail dedup`, 100,000 articles, node --cpu-prof: worker idle 24 of 38 s, main thread 4.9 s in
 * postMessage). 16 keep a worker busy through ~0.06–0.08 s of the main thread's own work (a page or a
 * batch of 32 texts takes a worker ~4–5 ms) for a few MB of pages held.
 */
const QUEUED_PER_WORKER = 16;

export class ExtractionPool implements PrepareAhead, FingerprintAhead {
  private readonly workers: Worker[] = [];
  /** Jobs posted to each worker, answered in the order posted. */
  private readonly posted = new Map<Worker, Job[]>();
  private next = 0;
  private failure: Error | null = null;
  readonly inFlight: number;

  /** A pool of `size` workers, each running the worker bundled once for all (worker-bundle.ts). */
  static async start(size: number, queuedPerWorker = QUEUED_PER_WORKER): Promise<ExtractionPool> {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a pool needs at least one worker, not ${size}`);
    return new ExtractionPool(size, queuedPerWorker, await extractionWorkerScript());
  }

  private constructor(size: number, queuedPerWorker: number, script: string) {
    this.inFlight = size * (1 + queuedPerWorker);
    for (let i = 0; i < size; i++) {
      const w = new Worker(script, { eval: true });
      w.on("message", (reply: Reply) => this.settle(w, reply));
      w.on("error", (err) => this.fail(err));
      this.workers.push(w);
      this.posted.set(w, []);
    }
  }

  prepare(job: PageJob): Promise<PreparedPage> {
    return this.ask({ kind: "page", job }) as Promise<PreparedPage>;
  }

  fingerprints(texts: readonly { text: string; title: string | null }[]): Promise<Fingerprint[]> {
    return this.ask({ kind: "fingerprints", texts }) as Promise<Fingerprint[]>;
  }

  private ask(request: WorkerRequest): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      // To the worker with the fewest jobs waiting: a worker runs its jobs one after another.
      let w = this.workers[0]!;
      for (const x of this.workers) if (this.posted.get(x)!.length < this.posted.get(w)!.length) w = x;
      const job = { id: this.next++, request, resolve, reject };
      this.posted.get(w)!.push(job);
      w.postMessage({ id: job.id, request });
    });
  }

  private settle(w: Worker, reply: Reply): void {
    const jobs = this.posted.get(w)!;
    if (jobs[0]?.id !== reply.id) return;
    const job = jobs.shift()!;
    if ("error" in reply) job.reject(new Error(reply.error));
    else job.resolve(reply.result);
  }

  /** A worker that died takes the pool with it: every job waiting is refused with the reason. */
  private fail(err: Error): void {
    this.failure = new Error(`extraction worker failed: ${err.message}`);
    for (const jobs of this.posted.values()) for (const job of jobs.splice(0)) job.reject(this.failure);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
