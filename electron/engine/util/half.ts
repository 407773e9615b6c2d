/**
 * IEEE 754 binary16 ("half") bits of a float: the GGUF writer's F16 tensors and Q8_0 scales
 * (embed/import/gguf-writer.ts) and the index's compact float copies (index/half-float.ts).
 */

const f32view = new Float32Array(1);
const u32view = new Uint32Array(f32view.buffer);
/** IEEE 754 binary16 bits of a float, rounded to nearest even (ggml_fp32_to_fp16's result). */
export function toHalf(x: number): number {
  f32view[0] = x;
  const bits = u32view[0] as number;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // Inf / NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow → Inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow → ±0
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++; // may carry into the exponent: correct
  e = half >>> 10;
  return sign | (e >= 0x1f ? 0x7c00 : half);
}
