import { describe, expect, it } from 'vitest';
import { headersForApp, headersFromApp, locationInLink, preflightHeaders, type PreviewMount } from './preview-headers.js';

const mount: PreviewMount = { prefix: '/preview/p1/123.sig', host: 'wolfpack.example:3000', proto: 'https' };

describe('the preview proxy’s headers', () => {
  it("gives the app the browser's request without Wolfpack's credentials or hop-by-hop headers", () => {
    const out = headersForApp(
      {
        cookie: 'wolfpack.sid=secret; wolfpack.sid.sig=x',
        authorization: 'Bearer wp_secret',
        'proxy-authorization': 'Basic x',
        'x-admin-secret': 'admin',
        connection: 'keep-alive, x-hop',
        'x-hop': 'drop me',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        'x-forwarded-for': '10.0.0.1',
        host: 'evil.example',
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '7',
        accept: 'text/html',
        'user-agent': 'test',
      },
      mount,
    );
    expect(out).toEqual({
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '7',
      accept: 'text/html',
      'user-agent': 'test',
      host: 'wolfpack.example:3000',
      'x-forwarded-host': 'wolfpack.example:3000',
      'x-forwarded-proto': 'https',
      'x-forwarded-prefix': '/preview/p1/123.sig',
    });
  });

  it('passes on what describes the content, and nothing that acts on the host', () => {
    const out = headersFromApp(
      {
        'content-type': 'text/html',
        'content-length': '12',
        etag: '"1"',
        'set-cookie': ['wolfpack.sid=evil; Path=/'],
        'clear-site-data': '"cookies"',
        'strict-transport-security': 'max-age=31536000',
        'alt-svc': 'h2="evil.example:443"',
        'content-security-policy': "default-src *",
        'access-control-allow-origin': 'https://evil.example',
        'access-control-allow-credentials': 'true',
        'x-accel-redirect': '/internal/secrets',
        'x-frame-options': 'ALLOWALL',
        'www-authenticate': 'Basic realm="x"',
        location: '/done?x=1',
      },
      mount,
    );
    expect(out).toEqual({ 'content-type': 'text/html', 'content-length': '12', etag: '"1"', location: '/preview/p1/123.sig/done?x=1' });
  });

  it('keeps redirects to the app itself inside the link, and leaves others alone', () => {
    expect(locationInLink('/a', mount)).toBe('/preview/p1/123.sig/a');
    expect(locationInLink('/preview/p1/123.sig/a', mount)).toBe('/preview/p1/123.sig/a');
    expect(locationInLink('http://127.0.0.1:3000/b?c=1#d', mount)).toBe('/preview/p1/123.sig/b?c=1#d');
    expect(locationInLink('http://localhost:8000/', mount)).toBe('/preview/p1/123.sig/');
    expect(locationInLink('https://wolfpack.example:3000/e', mount)).toBe('/preview/p1/123.sig/e');
    expect(locationInLink('thanks', mount)).toBe('thanks');
    expect(locationInLink('//other.example/x', mount)).toBe('//other.example/x');
    expect(locationInLink('https://other.example/x', mount)).toBe('https://other.example/x');
  });

  it('answers CORS preflights for the opaque origin without credentials', () => {
    expect(preflightHeaders('GET', {})).toBeUndefined();
    expect(preflightHeaders('OPTIONS', {})).toBeUndefined();
    expect(preflightHeaders('OPTIONS', { 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type, x-thing' })).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': 'content-type, x-thing',
      'access-control-max-age': '600',
    });
    expect(preflightHeaders('OPTIONS', { 'access-control-request-method': 'PUT', 'access-control-request-headers': 'a\r\nset-cookie: x' })).not.toHaveProperty('access-control-allow-headers');
  });
});
