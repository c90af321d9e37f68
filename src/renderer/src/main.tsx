/**
 * Renderer entry: picks the connection (IPC in the desktop app, WebSocket in a browser tab), binds
 * it to the store, makes invisible characters visible in whatever is shown, and renders the app.
 */
// Base styles first, so each panel's own stylesheet (imported by the panel) can refine them.
import './styles/theme.css';
import './styles/app.css';
import {StrictMode} from 'react';
import {createRoot} from 'react-dom/client';
import {App} from './app/App.js';
import {bindStore} from './app/bootstrap.js';
import {InspectorContext, type InspectorServices} from './context/InspectorContext.js';
import {selectConnection} from './connection/selectConnection.js';
import {InspectorStore} from './store/InspectorStore.js';
import {UiStore} from './store/UiStore.js';
import {browserColorMemory} from './ui/colorMemory.js';
import {watchInvisible} from './ui/revealInvisible.js';

// The zod checks of server messages are the biggest part of this UI's code and the first paint
// does not need them: fetch them in parallel with it.
const checks = import('./connection/protocolChecks.js');

const services: InspectorServices = {
  // Listeners hear about changes once per frame however many batches arrived.
  store: new InspectorStore(
    undefined,
    notify => requestAnimationFrame(notify),
    browserColorMemory(),
  ),
  ui: new UiStore(),
  connection: selectConnection(checks.then(module => module.protocolChecks)),
};
bindStore(services.connection, services.store, services.ui);

// Invisible and bidi characters in anything a panel shows (page, client or recorded text) are
// made visible, whichever panel renders it.
watchInvisible(document.body);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <InspectorContext.Provider value={services}>
        <App />
      </InspectorContext.Provider>
    </StrictMode>,
  );
}
