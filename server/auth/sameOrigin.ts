/**
 * Is this request from our own pages? Browsers send Origin on every POST/PUT/DELETE and
 * Sec-Fetch-Site on every fetch; a request from another site cannot forge either. Both present must
 * agree with us, and at least one must be present (an old client sending neither is refused rather
 * than trusted). Cookie-authenticated changes need this AND the session's CSRF token
 * (server/http/authenticate.ts); bearer-token requests come from the CLI and need neither.
 */
export interface OriginHeaders {
  origin?: string;
  secFetchSite?: string;
}

export function isSameOriginRequest(headers: OriginHeaders, expectedOrigin: string): boolean {
  const { origin, secFetchSite } = headers;
  if (origin === undefined && secFetchSite === undefined) return false;
  if (secFetchSite !== undefined && secFetchSite !== 'same-origin') return false;
  return origin === undefined || origin === expectedOrigin;
}
