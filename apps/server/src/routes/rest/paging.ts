import type { FastifyReply, FastifyRequest } from "fastify";

/** The page count of a paged list, beside the answer's own `pagination.totalPages` where it has one. */
const TOTAL_PAGES_HEADER = "x-total-pages";

/**
 * What each paged list's OpenAPI description says about paging (SPEC §3 Pagination, §7.1
 * `?page&limit`, §9 page sizes): `defaultLimit` rows a page unless `limit` says otherwise, at most
 * `maxLimit` (the limits of the list's procedure).
 */
export function pagedDescription(defaultLimit: number, maxLimit = 100): string {
  return (
    `Paged: \`page\` from 1 (the default) and \`limit\` rows a page (${defaultLimit} by default, at most ${maxLimit}); ` +
    "400 for a page or limit that is not a positive whole number. The `Link` header (RFC 8288) gives the " +
    'root-relative URLs of rel="first", "prev", "next" and "last", keeping the other query parameters ' +
    '("prev" from page 2 on, "next" before the last page), and `X-Total-Pages` the page count.'
  );
}

/** The URL of `page` of the list `req` asked for: its own path and query with `page` set (root-relative). */
function pageUrl(req: FastifyRequest, page: number): string {
  // req.url is the path and query as sent; the base only lets URL parse it.
  const url = new URL(req.url, "http://list.invalid");
  url.searchParams.set("page", String(page));
  return `${url.pathname}${url.search}`;
}

/**
 * Sends the paging headers of one page of a list (SPEC §3 Pagination): `X-Total-Pages`, and `Link`
 * (RFC 8288) with rel="first" and "last" always, "prev" from page 2 on (the last page when asked
 * past it) and "next" before the last page. An empty list has one page. Each URL is the request's
 * own path and query with `page` set, so `limit` and filters are kept; URLSearchParams
 * percent-encodes every value, so nothing a client sent can end a link or start another.
 */
export function sendPageLinks(
  req: FastifyRequest,
  reply: FastifyReply,
  page: number | undefined,
  totalPages: number,
): void {
  const current = page ?? 1;
  const last = Math.max(1, totalPages);
  const links: Array<[number, string]> = [[1, "first"]];
  if (current > 1) links.push([Math.min(current - 1, last), "prev"]);
  if (current < last) links.push([current + 1, "next"]);
  links.push([last, "last"]);
  reply.header(TOTAL_PAGES_HEADER, String(totalPages));
  reply.header("link", links.map(([n, rel]) => `<${pageUrl(req, n)}>; rel="${rel}"`).join(", "));
}
