/** Mantine's toast container, in its own chunk (loaded by ToastHost with the first toast). */
import { Notifications } from '@mantine/notifications';

export default function Toasts() {
  return <Notifications position="top-right" limit={5} />;
}
