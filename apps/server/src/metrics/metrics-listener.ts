import Fastify from "fastify";
import { restErrorHandler } from "../routes/rest/error-handler";
import { metricsRoute } from "./metrics-route";

/** A running METRICS_PORT listener. */
export interface MetricsListener {
  /** The port it listens on (the one asked for, or the one the system chose for 0). */
  port: number;
  /** Stops listening; resolves once closed. */
  close(): Promise<void>;
}

/**
 * Decision 028, METRICS_PORT: serves `GET /metrics` on its own listener at `host`:`port` (0: a
 * free port), apart from the app, so the main port never answers it and the port can stay
 * inside a private network. No token unless `token` is given (METRICS_TOKEN set too); every
 * other path answers 404. Rejects when the port cannot be listened on.
 */
export async function startMetricsListener(opts: {
  port: number;
  host: string;
  token?: string | undefined;
}): Promise<MetricsListener> {
  const app = Fastify({ logger: false, frameworkErrors: restErrorHandler });
  metricsRoute(app, { serve: true, token: opts.token });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ message: "Not found." }));
  await app.listen({ port: opts.port, host: opts.host });
  const address = app.server.address();
  return {
    port: typeof address === "object" && address ? address.port : opts.port,
    close: () => app.close(),
  };
}
