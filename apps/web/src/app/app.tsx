import { RouterProvider } from 'react-router/dom';
import { redirectToSignIn } from '@/auth/sign-in';
import { errorMessage } from '@/lib/status-routing';
import { showErrorToast } from '@/ui/error-toast';
import { createErrorHandling } from './error-handling';
import { AppProviders } from './providers';
import { createAppQueryClient } from './query-client';
import { createAppRouter } from './router';
import { areaRoutes } from './routes';

const router = createAppRouter(areaRoutes);

const queryClient = createAppQueryClient(
  createErrorHandling({
    navigate: (path, detail) => void router.navigate(path, { state: { detail } }),
    signIn: () =>
      void redirectToSignIn(queryClient).catch((error: unknown) =>
        router.navigate('/error/unknown', { state: { detail: errorMessage(error) } }),
      ),
    notifyError: showErrorToast,
  }),
);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
