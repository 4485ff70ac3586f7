// Turns strokes drawn on the page into the 8x8 image digits_cnn expects.
//
// scikit-learn's digits (load_digits, from UCI "optdigits") were made by
// NIST's preprocessing: each digit was size-normalised into a 32x32 bitmap,
// then the bitmap was cut into 4x4 blocks and the "on" pixels of each block
// counted, 0..16; the model was trained on count / 16. We do the same:
// the strokes' bounding box is scaled (aspect kept) so the digit fills the
// 32 rows as the training digits do, centred; each bitmap pixel is on when
// its centre lies within kPenRadius of a stroke segment; each 8x8 value is
// the on-pixels of its 4x4 block over 16. Everything is plain arithmetic,
// not canvas drawing, so the result is the same in every browser and
// exactly a multiple of 1/16, like the training data.

export const kBitmap = 32;
// Pen radius in bitmap pixels: the training digits have about 310 of 1024
// pixels on, which a digit of 32 rows reaches with strokes about 4 wide.
export const kPenRadius = 2.0;

// strokes: [[[x, y], ...], ...] in any units (canvas pixels). Returns a
// Float32Array(64), row-major 8x8, values k/16; all zero for no strokes.
export function downsample(strokes) {
  const out = new Float32Array(64);
  const points = strokes.flat();
  if (points.length === 0) return out;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of points) {
    x0 = Math.min(x0, x); x1 = Math.max(x1, x);
    y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  // Fit the centre lines into the bitmap less the pen radius on each side;
  // a dot (zero extent) keeps scale 1 rather than dividing by zero.
  const span = kBitmap - 2 * kPenRadius;
  const extent = Math.max(x1 - x0, y1 - y0);
  const scale = extent > 0 ? span / extent : 1;
  const ox = kBitmap / 2 - scale * (x0 + x1) / 2;
  const oy = kBitmap / 2 - scale * (y0 + y1) / 2;
  const segments = [];
  for (const stroke of strokes) {
    const p = stroke.map(([x, y]) => [ox + scale * x, oy + scale * y]);
    if (p.length === 1) segments.push([p[0], p[0]]);
    for (let i = 1; i < p.length; ++i) segments.push([p[i - 1], p[i]]);
  }
  const r2 = kPenRadius * kPenRadius;
  for (let py = 0; py < kBitmap; ++py) {
    for (let px = 0; px < kBitmap; ++px) {
      const cx = px + 0.5, cy = py + 0.5;
      if (segments.some(([a, b]) => distance2(cx, cy, a, b) <= r2))
        out[(py >> 2) * 8 + (px >> 2)] += 1 / 16;
    }
  }
  return out;
}

// Squared distance from (x, y) to the segment a-b.
function distance2(x, y, [ax, ay], [bx, by]) {
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const ex = ax + t * dx - x, ey = ay + t * dy - y;
  return ex * ex + ey * ey;
}
