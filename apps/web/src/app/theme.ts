import { createTheme } from '@mantine/core';

/** A quiet, professional look: indigo accents on neutral greys, system fonts (no CDN). */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'sm',
  cursorType: 'pointer',
  headings: { fontWeight: '600' },
  components: {
    // A link takes the size of the text around it: a grid's View at 14 px like its cells (issue 10 item 14).
    Anchor: { defaultProps: { inherit: true } },
    // A dialog opens on its first field (issue 10 item 14): the close button is not a tab stop
    // (Escape and the dialog's own Cancel close it), so the focus trap starts on the form.
    Modal: { defaultProps: { closeButtonProps: { tabIndex: -1 } } },
    // A long description scrolls inside its box instead of growing the dialog off screen.
    Textarea: { defaultProps: { maxRows: 6 } },
    Paper: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { radius: 'md', withBorder: true } },
    Tooltip: { defaultProps: { withArrow: true } },
  },
});
