import {StrictMode} from 'react';
import {createRoot} from 'react-dom/client';

function App(): React.JSX.Element {
  return <main>MCP Browser Inspector</main>;
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
