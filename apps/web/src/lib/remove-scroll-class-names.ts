import { fullWidthClassName, zeroRightClassName } from 'react-remove-scroll-bar/constants';

/**
 * What Mantine's AppShell header, footer and aside read of `react-remove-scroll`: the class names
 * that a locked page's scroll-bar compensation targets. The build (vite.config.ts,
 * `appShellScrollClassNames`) gives them this module instead of the library, which would bring its
 * whole scroll lock (7 KB gzipped) into the first load only to read two strings; the dialogs that
 * lock scrolling still use the library, and fill these classes' styles themselves.
 * remove-scroll-class-names.test.ts checks that the names are the library's.
 */
export const RemoveScroll = {
  classNames: { fullWidth: fullWidthClassName, zeroRight: zeroRightClassName },
} as const;
