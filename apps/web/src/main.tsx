import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, firstScreenReady } from './app/app';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// A first screen the server wrote stays until the site can render the same screen over it.
void firstScreenReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
