// A reader of 8-bit RGB and RGBA PNGs (what the command line writes, and browser screenshots),
// for tests that compare pixels.
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';

/** The RGB pixels of an 8-bit RGB or RGBA, non-interlaced PNG (alpha dropped). */
export function decodePng(bytes) {
  let pos = 8;
  let header = null;
  const data = [];
  while (pos < bytes.length) {
    const len = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const body = bytes.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8], colour: body[9], interlace: body[12] };
    if (type === 'IDAT') data.push(body);
    pos += 12 + len;
  }
  assert.ok(header.depth === 8 && (header.colour === 2 || header.colour === 6) && header.interlace === 0, 'an 8-bit RGB(A) PNG');
  const { width, height } = header;
  const channels = header.colour === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(data));
  const stride = channels * width;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter];
      out[y * stride + x] = (line[x] + predicted) & 0xff;
    }
  }
  if (channels === 3) return { width, height, rgb: out };
  const rgb = new Uint8Array(3 * width * height);
  for (let i = 0; i < width * height; i++) rgb.set(out.subarray(4 * i, 4 * i + 3), 3 * i);
  return { width, height, rgb };
}
