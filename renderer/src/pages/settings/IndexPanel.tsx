/** Settings' index section: status, sync progress and "Rebuild index". */
import { IndexStatusView } from '../../components/IndexStatusView';

export function IndexPanel() {
  return (
    <section className="panel" aria-labelledby="index-title">
      <h2 id="index-title">Memory index</h2>
      <IndexStatusView />
    </section>
  );
}
