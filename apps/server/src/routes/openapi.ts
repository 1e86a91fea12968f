import type { FastifyInstance } from "fastify";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** Where the OpenAPI document and its reference page are served. */
const OPENAPI_JSON_PATH = "/api/openapi.json";
const OPENAPI_DOCS_PATH = "/api/docs";

/**
 * Registers @fastify/swagger on the root app, before any route, so every route that declares a
 * schema (the REST scope, /files, /healthz) is in the OpenAPI 3.1 document by construction, its
 * zod schemas turned into JSON Schema by fastify-type-provider-zod's transform. Routes without a
 * schema (tRPC, the web app) are left out. Serves the document at GET /api/openapi.json and a
 * reference page at GET /api/docs (@fastify/swagger-ui, its assets served from the package).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Tafsiri REST API",
        version: "1.0.0",
        description:
          "The documented paths of the Tafsiri specification (SPEC §7.1) for integrators. Send the session token from " +
          "POST /auth/login, or an API token (`tfs_…`, made on the API tokens page: decision 036), as " +
          "`Authorization: Bearer <token>`. Every failure answers " +
          "`{ status: 'failed', success: false, message }` with its HTTP status: each path's description names the " +
          "statuses it answers, and besides those any path may answer 400 for text holding the NUL character (U+0000), " +
          "403 'This API token is read-only: it cannot change anything.' to a read-only API token on anything but " +
          "GET and HEAD (decision 036), 403 with `reason` SECOND_FACTOR_ENROLMENT_REQUIRED to an admin who signed in " +
          "with a password alone while admins must have a second factor, on every path but enrolment's, renewal, " +
          "confirm-identity and sign-out (decision 038), 413 for a request body over the limit, 414 for a path too long, 415 for a body that is not JSON where JSON " +
          "is read, 429 past the request limit (and the sign-in limit) and 500 for an unexpected failure. " +
          "The web app itself uses tRPC at /trpc; " +
          "live events are a tRPC subscription over the WebSocket at /trpc (see README).",
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          // Decision 036: a person's API token, sent the same way.
          apiToken: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "tfs_…",
            description:
              "An API token made on the API tokens page (`tfs_` and 40 characters): it acts as its owner until it " +
              "expires or is revoked; a read-only token may only GET (anything else answers 403 'This API token is " +
              "read-only: it cannot change anything.').",
          },
        },
      },
      security: [{ bearerAuth: [] }, { apiToken: [] }],
    },
    transform: (document) => {
      if (!document.schema) return { schema: { hide: true }, url: document.url };
      return jsonSchemaTransform(document);
    },
  });

  app.get(OPENAPI_JSON_PATH, { schema: { hide: true } }, async () => app.swagger());

  await app.register(fastifySwaggerUi, {
    routePrefix: OPENAPI_DOCS_PATH,
    // Our own assets only; swagger-ui sets inline styles from script, as the web app's CSP allows too.
    staticCSP: {
      "default-src": "'self'",
      "base-uri": "'self'",
      "frame-ancestors": "'self'",
      "object-src": "'none'",
      "img-src": "'self' data:",
      "font-src": "'self' data:",
      "script-src": "'self'",
      "script-src-attr": "'none'",
      "style-src": "'self' 'unsafe-inline'",
    },
    // No call-out to the public validator service: the page works offline and under our CSP.
    uiConfig: { validatorUrl: null },
    transformSpecificationClone: true,
  });
}
