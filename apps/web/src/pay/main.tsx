import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryOf, realBrowser, requestIdFromPath } from './browser';
import { PayApp } from './pay-app';
import './pay.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

createRoot(root).render(
  <StrictMode>
    <PayApp
      requestId={requestIdFromPath(window.location.pathname)}
      query={queryOf(window.location.search)}
      browser={realBrowser}
    />
  </StrictMode>,
);
