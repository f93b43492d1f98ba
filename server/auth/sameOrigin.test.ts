import { describe, expect, it } from 'vitest';
import { isSameOriginRequest } from './sameOrigin';

const US = 'https://annotate.lab.example';

describe('same-origin check', () => {
  it('accepts our own pages', () => {
    expect(isSameOriginRequest({ origin: US, secFetchSite: 'same-origin' }, US)).toBe(true);
    expect(isSameOriginRequest({ origin: US }, US)).toBe(true);
    expect(isSameOriginRequest({ secFetchSite: 'same-origin' }, US)).toBe(true);
  });

  it('refuses other sites, sibling subdomains, other schemes and ports, and requests that say nothing', () => {
    expect(isSameOriginRequest({ origin: 'https://evil.example', secFetchSite: 'cross-site' }, US)).toBe(false);
    expect(isSameOriginRequest({ origin: 'https://other.lab.example', secFetchSite: 'same-site' }, US)).toBe(false);
    expect(isSameOriginRequest({ origin: 'http://annotate.lab.example' }, US)).toBe(false);
    expect(isSameOriginRequest({ origin: `${US}:8443` }, US)).toBe(false);
    expect(isSameOriginRequest({ origin: 'null' }, US)).toBe(false);
    expect(isSameOriginRequest({ origin: US, secFetchSite: 'cross-site' }, US)).toBe(false);
    expect(isSameOriginRequest({ secFetchSite: 'none' }, US)).toBe(false);
    expect(isSameOriginRequest({}, US)).toBe(false);
  });
});
