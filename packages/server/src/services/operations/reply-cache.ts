/**
 * Replies kept as bytes under a key that changes whenever the reply may (the project list's pages,
 * under the user's list version: migration 0015), with each encoding the compression made of them
 * (middleware/compress.ts reuses those). Least recently used first out, bounded in bytes: the
 * JSON and its encodings all count. One process's memory; every process keeps its own, and the
 * key, read from the database, keeps them all right.
 */

/** A reply kept as its JSON bytes, and its encodings ('gzip', 'br') once made. */
export class KeptReply {
  private readonly encoded = new Map<string, Buffer>();

  constructor(
    readonly json: Buffer,
    private readonly grew: (bytes: number) => void = () => {},
  ) {}

  encoding(name: string): Buffer | undefined {
    return this.encoded.get(name);
  }

  /** Keeps `bytes` as this reply in `name` (the first one made wins). */
  keep(name: string, bytes: Buffer): void {
    if (this.encoded.has(name)) return;
    this.encoded.set(name, bytes);
    this.grew(bytes.length);
  }

  get size(): number {
    let size = this.json.length;
    for (const bytes of this.encoded.values()) size += bytes.length;
    return size;
  }
}

export class ReplyCache {
  /** In use order: the first is the least recently used. */
  private readonly entries = new Map<string, KeptReply>();
  private bytes = 0;

  /** `maxBytes` 0: nothing is kept. */
  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Bytes held now (JSON and encodings). */
  get size(): number {
    return this.bytes;
  }

  get(key: string): KeptReply | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /**
   * Keeps `json` under `key` and returns it as a reply (kept or not: one larger than the whole
   * cache is answered all the same, and not kept).
   */
  set(key: string, json: Buffer): KeptReply {
    this.remove(key);
    if (json.length > this.maxBytes) return new KeptReply(json);
    const entry: KeptReply = new KeptReply(json, (bytes) => {
      // Encodings made after the entry was dropped do not count.
      if (this.entries.get(key) !== entry) return;
      this.bytes += bytes;
      this.shrink();
    });
    this.entries.set(key, entry);
    this.bytes += json.length;
    this.shrink();
    return entry;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  private shrink(): void {
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) return;
      this.remove(key);
    }
  }
}
