import { describe, expect, it } from 'vitest';
import { cookieFromApp, cookiesForApp, headersForApp, headersFromApp, locationInPreview, type PreviewMount } from './preview-headers.js';
import { PREVIEW_APP_COOKIE, PREVIEW_COOKIE } from './preview-origin.js';

const mount: PreviewMount = { host: 'p-1.localhost:3000', proto: 'http' };

describe('the preview proxy’s headers', () => {
  it("gives the app its own cookies and credentials, without the preview's access cookie or hop-by-hop headers", () => {
    const out = headersForApp(
      {
        cookie: `theme=dark; ${PREVIEW_COOKIE}=123.sig; cart=2; ${PREVIEW_APP_COOKIE}=http%3A%2F%2F127.0.0.1%3A3000`,
        authorization: 'Basic YWxpY2U6eA==',
        'proxy-authorization': 'Basic x',
        'x-admin-secret': 'admin',
        connection: 'keep-alive, x-hop',
        'x-hop': 'drop me',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        'x-forwarded-for': '10.0.0.1',
        'x-forwarded-prefix': '/elsewhere',
        host: 'evil.example',
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '7',
        accept: 'text/html',
      },
      mount,
    );
    expect(out).toEqual({
      cookie: 'theme=dark; cart=2',
      authorization: 'Basic YWxpY2U6eA==',
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '7',
      accept: 'text/html',
      host: 'p-1.localhost:3000',
      'x-forwarded-host': 'p-1.localhost:3000',
      'x-forwarded-proto': 'http',
    });
  });

  it('sends no Cookie header when the access cookie was the only one', () => {
    expect(cookiesForApp(`${PREVIEW_COOKIE}=1.x`)).toBeUndefined();
    expect(headersForApp({ cookie: `${PREVIEW_COOKIE}=1.x` }, mount)).not.toHaveProperty('cookie');
    expect(cookiesForApp(undefined)).toBeUndefined();
  });

  it("passes the app's answer on, less what only a connection or a front proxy reads", () => {
    const out = headersFromApp({
      'content-type': 'text/html',
      'content-length': '12',
      'content-security-policy': "default-src 'self'",
      'access-control-allow-origin': 'https://other.example',
      'set-cookie': ['sid=1; Path=/; HttpOnly', `${PREVIEW_COOKIE}=forged; Path=/`, 'wide=1; Domain=localhost; Path=/'],
      'x-accel-redirect': '/internal/secrets',
      'x-sendfile': '/etc/passwd',
      'alt-svc': 'h2="evil.example:443"',
      'transfer-encoding': 'chunked',
      connection: 'close',
      location: 'https://evil.example/login?x=1',
    });
    expect(out).toEqual({
      'content-type': 'text/html',
      'content-length': '12',
      'content-security-policy': "default-src 'self'",
      'access-control-allow-origin': 'https://other.example',
      'set-cookie': ['sid=1; Path=/; HttpOnly', 'wide=1; Path=/'],
      location: '/login?x=1',
    });
  });

  it('keeps every redirect on the preview origin', () => {
    expect(locationInPreview('/a?b=1')).toBe('/a?b=1');
    expect(locationInPreview('http://127.0.0.1:3000/b?c=1#d')).toBe('/b?c=1#d');
    expect(locationInPreview('//evil.example/login')).toBe('/login');
    expect(locationInPreview('/\\evil.example/login')).toBe('/login');
    expect(locationInPreview('https://evil.example')).toBe('/');
    expect(locationInPreview('javascript:alert(1)')).toBe('/');
    expect(locationInPreview('thanks')).toBe('thanks');
  });

  it("drops a cookie's Domain and refuses the access cookie's name", () => {
    expect(cookieFromApp('a=1; Domain=.example.net; Secure')).toBe('a=1; Secure');
    expect(cookieFromApp(` ${PREVIEW_COOKIE} =x`)).toBeUndefined();
    expect(cookieFromApp(`${PREVIEW_APP_COOKIE}=https%3A%2F%2Fevil.example`)).toBeUndefined();
  });
});
