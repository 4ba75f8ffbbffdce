import { describe, expect, it } from 'vitest';
import { httpOrigin, isLoopbackHost, pathInsidePreview, previewOrigin, previewProjectOf } from './preview-origin.js';

const id = '0b6f3c1e-9d8a-4f2b-8c7d-123456789abc';

describe('preview origins', () => {
  it('names a project by its p-<id> host under localhost or the configured domain only', () => {
    expect(previewProjectOf(`p-${id}.localhost:3000`, undefined)).toBe(id);
    expect(previewProjectOf(`P-${id.toUpperCase()}.LOCALHOST`, undefined)).toBe(id);
    expect(previewProjectOf(`p-${id}.preview.example.net`, 'preview.example.net')).toBe(id);
    expect(previewProjectOf(`p-${id}.preview.example.net:8443`, 'preview.example.net:8443')).toBe(id);
    expect(previewProjectOf(`p-${id}.evil.example`, 'preview.example.net')).toBeUndefined();
    expect(previewProjectOf(`x.p-${id}.localhost`, undefined)).toBeUndefined();
    expect(previewProjectOf('p-not-a-uuid.localhost', undefined)).toBeUndefined();
    expect(previewProjectOf('127.0.0.1:3000', undefined)).toBeUndefined();
    expect(previewProjectOf(undefined, undefined)).toBeUndefined();
    expect(previewProjectOf(`p-${id}.localhost:3000/x`, undefined)).toBeUndefined();
  });

  it('puts the preview on the port the browser used, or on the configured domain', () => {
    expect(previewOrigin(id, { proto: 'http', base: undefined, requestHost: '127.0.0.1:3000', localPort: 3000 })).toBe(`http://p-${id}.localhost:3000`);
    expect(previewOrigin(id, { proto: 'http', base: undefined, requestHost: 'localhost:8080', localPort: 3000 })).toBe(`http://p-${id}.localhost:8080`);
    expect(previewOrigin(id, { proto: 'http', base: undefined, requestHost: 'localhost', localPort: 80 })).toBe(`http://p-${id}.localhost`);
    expect(previewOrigin(id, { proto: 'https', base: 'Preview.Example.net', requestHost: 'app.example.com', localPort: 3000 })).toBe(`https://p-${id}.preview.example.net`);
  });

  it('tells loopback hosts from the others', () => {
    expect(isLoopbackHost('localhost:3000')).toBe(true);
    expect(isLoopbackHost('127.0.0.5')).toBe(true);
    expect(isLoopbackHost('[::1]:3000')).toBe(true);
    expect(isLoopbackHost('192.168.1.5:3000')).toBe(false);
    expect(isLoopbackHost('wolfpack.example.com')).toBe(false);
  });

  it('takes only plain http(s) origins as the way back to Wolfpack', () => {
    expect(httpOrigin('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(httpOrigin('https://wolfpack.example.com/')).toBe('https://wolfpack.example.com');
    expect(httpOrigin('https://wolfpack.example.com/projects')).toBeUndefined();
    expect(httpOrigin('javascript:alert(1)')).toBeUndefined();
    expect(httpOrigin('not a url')).toBeUndefined();
    expect(httpOrigin(undefined)).toBeUndefined();
  });

  it('opens only paths on the preview origin', () => {
    expect(pathInsidePreview('/notes?x=1')).toBe('/notes?x=1');
    expect(pathInsidePreview('//evil.example')).toBe('/');
    expect(pathInsidePreview('/\\evil.example')).toBe('/');
    expect(pathInsidePreview('https://evil.example')).toBe('/');
    expect(pathInsidePreview('/__wolfpack__/enter')).toBe('/');
    expect(pathInsidePreview(undefined)).toBe('/');
  });
});
