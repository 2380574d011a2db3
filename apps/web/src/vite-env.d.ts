/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Address of the Help menu's "Contact support" link. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
