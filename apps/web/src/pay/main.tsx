import type { PayPageAnswer } from '@ledgerline/contract';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryOf, realBrowser, requestIdFromPath } from './browser';
import { PayApp } from './pay-app';
import { StatementApp, statementTokenFromPath } from './statement-app';
import './pay.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The same entry serves `/pay/{id}` and an account's statement, `/statement/{token}`.
const path = window.location.pathname;

/**
 * An open request's answer, which the server wrote into the page beside its first
 * screen (apps/api/src/platform/pay-page-first-screen.ts); the app renders over that screen.
 */
function firstAnswer(): PayPageAnswer | undefined {
  const text = document.getElementById('pay-first-answer')?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PayPageAnswer;
  } catch {
    return undefined;
  }
}

createRoot(root).render(
  <StrictMode>
    {path.startsWith('/statement/') ? (
      <StatementApp token={statementTokenFromPath(path)} browser={realBrowser} />
    ) : (
      <PayApp
        requestId={requestIdFromPath(path)}
        query={queryOf(window.location.search)}
        browser={realBrowser}
        firstAnswer={firstAnswer()}
      />
    )}
  </StrictMode>,
);
