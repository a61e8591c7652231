// A reader of the PNGs the command line writes, for tests that compare pixels with it.
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';

/** The pixels of an 8-bit RGB, non-interlaced PNG (what the command line writes). */
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
  assert.deepEqual([header.depth, header.colour, header.interlace], [8, 2, 0], 'an 8-bit RGB PNG');
  const { width, height } = header;
  const raw = inflateSync(Buffer.concat(data));
  const stride = 3 * width;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= 3 ? out[y * stride + x - 3] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= 3 && y > 0 ? out[(y - 1) * stride + x - 3] : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter];
      out[y * stride + x] = (line[x] + predicted) & 0xff;
    }
  }
  return { width, height, rgb: out };
}
