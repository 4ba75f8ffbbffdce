import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from './api/client';
import { App } from './app';
import { Toaster } from './components/toaster';
import { syncBrandColorToDocument } from './hooks/use-brand-color';
import { syncThemeToDocument } from './hooks/use-theme';
import './index.css';

// Before the first render, so the stored look is there from the first frame.
syncThemeToDocument();
syncBrandColorToDocument();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
