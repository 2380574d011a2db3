import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryOf, realBrowser, requestIdFromPath } from './browser';
import { PayApp } from './pay-app';
import { StatementApp, statementTokenFromPath } from './statement-app';
import './pay.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The same entry serves `/pay/{id}` and an account's statement, `/statement/{token}` (issue 23).
const path = window.location.pathname;

createRoot(root).render(
  <StrictMode>
    {path.startsWith('/statement/') ? (
      <StatementApp token={statementTokenFromPath(path)} browser={realBrowser} />
    ) : (
      <PayApp
        requestId={requestIdFromPath(path)}
        query={queryOf(window.location.search)}
        browser={realBrowser}
      />
    )}
  </StrictMode>,
);
