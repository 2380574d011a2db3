import { createTheme, darken, DEFAULT_THEME, rem, type CSSVariablesResolver } from '@mantine/core';

/** An option list's dropdown scrolls at Mantine's own height for it (maxDropdownHeight 220). */
const comboboxList = {
  defaultProps: { withScrollArea: false, attributes: { dropdown: { tabIndex: 0 } } },
  styles: { dropdown: { maxHeight: rem(230), overflowY: 'auto' } },
} as const;

/** A quiet, professional look: indigo accents on neutral greys, system fonts (no CDN). */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'sm',
  cursorType: 'pointer',
  headings: { fontWeight: '600' },
  components: {
    // A link takes the size of the text around it: a grid's View at 14 px like its cells.
    Anchor: { defaultProps: { inherit: true } },
    // A dialog opens on its first field: the close button is not a tab stop
    // (Escape and the dialog's own Cancel close it), so the focus trap starts on the form. It
    // still has a name for a screen reader (axe button-name). Its header is a
    // <header>, a second banner landmark beside the top bar's: not a landmark.
    Modal: {
      defaultProps: {
        closeButtonProps: { tabIndex: -1, 'aria-label': 'Close dialog' },
        attributes: { header: { role: 'none' } },
      },
    },
    // Mantine's focus placeholder is a bare tabindex div inside role="menu", which may hold menu
    // items only (axe aria-required-children): a menu opens on its first item.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A long option list scrolls in its dropdown, which the keyboard can reach (axe
    // scrollable-region-focusable): Mantine's ScrollArea inside the listbox is a
    // scroll box no key reaches, and a tab stop inside a listbox is not an option.
    Select: comboboxList,
    MultiSelect: comboboxList,
    Autocomplete: comboboxList,
    // A long description scrolls inside its box instead of growing the dialog off screen.
    Textarea: { defaultProps: { maxRows: 6 } },
    Paper: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { radius: 'md', withBorder: true } },
    Tooltip: { defaultProps: { withArrow: true } },
  },
});

/**
 * How much darker than its shade 9 a colour's text must be to read at 4.5:1 or more (WCAG 2.2
 * 1.4.3) on its own light fill over white or a striped row (Pending at 1.97:1).
 * Measured with apps/web/src/app/theme.test.ts, which fails if a colour falls under 4.5:1.
 */
const textDarkening: Record<string, number> = {
  yellow: 0.35,
  lime: 0.3,
  green: 0.2,
  orange: 0.2,
  teal: 0.15,
  red: 0.1,
  blue: 0.1,
  cyan: 0.1,
};

/** The colour of a palette's text on white or on its own light fill, at 4.5:1 or more. */
export function readableTextColor(color: string): string {
  const shades = DEFAULT_THEME.colors[color];
  if (!shades) throw new Error(`No colour ${color} in the palette`);
  return darken(shades[9], textDarkening[color] ?? 0);
}

/**
 * The colours whose filled variant (white text on shade 7: a red Delete button, a green badge)
 * reads under 4.5:1: they fill with their readable text colour instead.
 */
export const darkerFills = [...Object.keys(textDarkening), 'pink'];

/** Secondary ('dimmed') text: Mantine's grey 6 reads at 3.3:1 on white; this one at 5.7:1. */
export const dimmedTextColor = '#5c636a';

/**
 * Text colours the theme alone cannot set: dimmed text, and the text of every
 * palette colour (`c="red"`), of its light variant (badges, light buttons, alerts, icons) and the
 * fill under white text of its filled variant.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': dimmedTextColor,
    // A field's error message (red 6: 3.3:1).
    '--mantine-color-error': readableTextColor('red'),
  };
  for (const color of Object.keys(DEFAULT_THEME.colors)) {
    if (color === 'dark' || color === 'gray') continue;
    const text = readableTextColor(color);
    light[`--mantine-color-${color}-light-color`] = text;
    light[`--mantine-color-${color}-text`] = text;
    if (darkerFills.includes(color)) {
      light[`--mantine-color-${color}-filled`] = text;
      light[`--mantine-color-${color}-filled-hover`] = darken(text, 0.1);
    }
  }
  return { variables: {}, light, dark: {} };
};
