import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, dimmedTextColor, readableTextColor, theme } from './theme';

type Rgb = readonly [number, number, number];

const fromHex = (hex: string): Rgb => {
  const digits = hex.replace('#', '');
  return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)) as unknown as Rgb;
};
/** Mantine's darken() answers rgba(r, g, b, a). */
const fromCss = (color: string): Rgb =>
  color.startsWith('#')
    ? fromHex(color)
    : (color
        .match(/[\d.]+/g)!
        .slice(0, 3)
        .map(Number) as unknown as Rgb);

/** WCAG 2.2 relative luminance and contrast ratio. */
const luminance = (rgb: Rgb) => {
  const [r, g, b] = rgb.map((value) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: Rgb, b: Rgb) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};
/** A light variant's fill: its shade 6 at 10 % over the background. */
const lightFill = (color: string, background: Rgb): Rgb =>
  fromHex(DEFAULT_THEME.colors[color]![6]).map(
    (value, at) => value * 0.1 + background[at]! * 0.9,
  ) as unknown as Rgb;

const white = fromHex('#ffffff');
/** A striped grid row and a hovered one. */
const stripedRow = fromHex(DEFAULT_THEME.colors.gray[0]);
const hoveredRow = fromHex(DEFAULT_THEME.colors.gray[1]);

// Every text at 4.5:1 or more (WCAG 2.2 1.4.3).
describe('the theme reads at 4.5:1', () => {
  const colors = Object.keys(DEFAULT_THEME.colors).filter((c) => c !== 'dark' && c !== 'gray');

  it.each(colors)('%s text on its light fill (badges) and on white', (color) => {
    const text = fromCss(readableTextColor(color));
    for (const background of [white, stripedRow, hoveredRow]) {
      expect(contrast(text, lightFill(color, background))).toBeGreaterThanOrEqual(4.5);
      expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it.each(colors)('white text on a %s fill (filled buttons and badges)', (color) => {
    const { light } = cssVariablesResolver({ ...DEFAULT_THEME, ...theme } as never);
    const fill = light[`--mantine-color-${color}-filled`] ?? DEFAULT_THEME.colors[color]![7];
    expect(contrast(white, fromCss(fill))).toBeGreaterThanOrEqual(4.5);
  });

  it('dimmed text on white, striped and hovered rows', () => {
    for (const background of [white, stripedRow, hoveredRow]) {
      expect(contrast(fromHex(dimmedTextColor), background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('sets those colours as the light scheme variables', () => {
    const { light } = cssVariablesResolver({ ...DEFAULT_THEME, ...theme } as never);
    expect(light['--mantine-color-dimmed']).toBe(dimmedTextColor);
    expect(light['--mantine-color-yellow-light-color']).toBe(readableTextColor('yellow'));
    expect(light['--mantine-color-red-text']).toBe(readableTextColor('red'));
  });

  it('names the dialogs close button and keeps it out of the tab order', () => {
    expect(theme.components?.Modal?.defaultProps).toMatchObject({
      closeButtonProps: { tabIndex: -1, 'aria-label': 'Close dialog' },
    });
  });
});
