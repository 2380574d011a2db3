import { createTheme } from '@mantine/core';

/** A quiet, professional look: indigo accents on neutral greys, system fonts (no CDN). */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'sm',
  cursorType: 'pointer',
  headings: { fontWeight: '600' },
  components: {
    Paper: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { radius: 'md', withBorder: true } },
    Tooltip: { defaultProps: { withArrow: true } },
  },
});
