/** Scale of the numeric(19,4) money columns (design §3). */
const scale = 4;

/**
 * A decimal text ('12.5', '-0.0100', '1e-3') as an integer count of 10⁻⁴ units, exactly: money is
 * compared without binary floating point (design §3). Digits past the fourth decimal are cut,
 * as numeric(19,4) would round them away anyway.
 */
export function toUnits(text: string): bigint {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === ''))
    throw new Error(`Not a decimal: ${text}`);
  const [, sign, whole = '', fraction = '', exponentText] = match;
  const exponent = Number(exponentText ?? 0);
  const digits = `${whole}${fraction}`;
  // The value is digits × 10^(exponent − fraction.length); we want it × 10^scale.
  const shift = exponent - fraction.length + scale;
  const units =
    shift >= 0
      ? BigInt(digits + '0'.repeat(shift))
      : BigInt(digits.slice(0, Math.max(0, digits.length + shift)) || '0');
  return sign === '-' ? -units : units;
}

/** −1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareDecimals(a: string, b: string): number {
  const difference = toUnits(a) - toUnits(b);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}
