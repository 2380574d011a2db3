import { RouterProvider } from 'react-router/dom';
import { redirectToSignIn } from '@/auth/sign-in';
import { startClientReports } from '@/lib/client-reports';
import { errorMessage } from '@/lib/status-routing';
import { showErrorToast } from '@/ui/error-toast';
import { createErrorHandling } from './error-handling';
import { ClientReportsSwitch } from './client-reports-switch';
import { keepCompanyCookie, startFirstScreen } from './first-screen';
import { AppProviders } from './providers';
import { createAppQueryClient } from './query-client';
import { createAppRouter } from './router';
import { areaRoutes } from './routes';

// Before anything renders, so that an error of the first render is kept (spec 1 §8).
const clientReporter = startClientReports();
// The switch asks the API whether reports are on: beside every screen but /health.
const router = createAppRouter(areaRoutes, <ClientReportsSwitch reporter={clientReporter} />);

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

/** The server's first screen, when it wrote one, filled in before the first render. */
keepCompanyCookie();
export const firstScreenReady = startFirstScreen(queryClient, router);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
