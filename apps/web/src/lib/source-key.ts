/**
 * The identity of a signed file URL: the URL without its query (expiry and signature), so that
 * a re-signed URL of the same file keeps the same player and cached text.
 */
export function sourceKey(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}
