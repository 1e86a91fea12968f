import net from "node:net";

/** A TCP proxy in front of the server that can drop every connection, as a flaky mobile link does. */
export interface CuttingProxy {
  /** http://127.0.0.1:{port}: open the app here and every request goes through the proxy. */
  readonly url: string;
  /** Bytes passed from the browser to the server so far. */
  readonly upstreamBytes: number;
  /** Bytes passed from the browser on each connection still open, one number a connection. */
  readonly openUpstreamBytes: number[];
  /** How many times the connections were cut. */
  readonly cuts: number;
  /** Drops every open connection now (both sides destroyed, bytes in flight lost). */
  cutAll(): void;
  /** Cuts every connection each time `upstreamBytes` passes one of these counts. */
  cutAtUpstreamBytes(marks: number[]): void;
  /** Cuts every connection every `ms` milliseconds until closed (0 stops it). */
  cutEvery(ms: number): void;
  close(): Promise<void>;
}

/**
 * Resumable uploads (decision 020): starts a TCP proxy on 127.0.0.1 to `target` (the server's
 * host:port). `upstreamBytesPerSecond` caps what the browser sends, so that an upload takes long
 * enough to be cut in the middle. WebSockets pass too (it is plain TCP).
 */
export async function startCuttingProxy(
  target: { host: string; port: number },
  opts: { upstreamBytesPerSecond?: number } = {},
): Promise<CuttingProxy> {
  const pairs = new Set<{ client: net.Socket; server: net.Socket; upstreamBytes: number }>();
  let upstreamBytes = 0;
  let cuts = 0;
  let marks: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  const rate = opts.upstreamBytesPerSecond;

  const cutAll = () => {
    cuts += 1;
    for (const pair of pairs) {
      pair.client.destroy();
      pair.server.destroy();
    }
    pairs.clear();
  };

  const proxy = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    const pair = { client, server, upstreamBytes: 0 };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on("error", drop).on("close", drop);
    server.on("error", drop).on("close", drop);
    server.pipe(client);
    client.on("data", (chunk: Buffer) => {
      upstreamBytes += chunk.length;
      pair.upstreamBytes += chunk.length;
      server.write(chunk);
      if (marks.length > 0 && upstreamBytes >= marks[0]!) {
        marks = marks.filter((mark) => mark > upstreamBytes);
        setImmediate(cutAll);
        return;
      }
      if (rate) {
        client.pause();
        setTimeout(() => client.resume(), (chunk.length / rate) * 1000);
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get upstreamBytes() {
      return upstreamBytes;
    },
    get openUpstreamBytes() {
      return [...pairs].map((pair) => pair.upstreamBytes);
    },
    get cuts() {
      return cuts;
    },
    cutAll,
    cutAtUpstreamBytes(next) {
      marks = [...next].sort((a, b) => a - b);
    },
    cutEvery(ms) {
      clearInterval(timer);
      if (ms > 0) timer = setInterval(cutAll, ms);
    },
    async close() {
      clearInterval(timer);
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
