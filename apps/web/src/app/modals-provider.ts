/**
 * The dialogs provider, loaded with the first dialog (deferred-overlays.tsx); a module of ours so
 * that the build manifest names it (scripts/check-bundle-size.mjs lists what loads on use).
 */
export { ModalsProvider } from '@mantine/modals';
