import {useStdout} from 'ink';
import type {FullArticle} from '../../../feeds/types.js';
import {enclosuresOf} from '../../../feeds/enclosure-text.js';
import {httpLink} from '../../../feeds/safe-html.js';
import {useKeyState} from '../../hooks/useKeyState.js';
import type {PaneMessage} from '../../components/MessageLine.js';
import {writeClipboard} from '../../terminal/clipboard.js';
import {openLink} from './openLink.js';

/**
 * The reader's keys for an article's enclosures (podcast audio, video): `E` chooses the next one,
 * `e` opens the chosen one in the browser as `o` opens the link, `y` copies its URL (OSC 52).
 * The choice belongs to one article: another article starts from its first enclosure.
 */
export function useEnclosures(openArticleNow: () => FullArticle | undefined, say: (message: PaneMessage) => void) {
  const {stdout} = useStdout();
  const [choice, choiceNow, setChoice] = useKeyState<{articleId: number; index: number} | undefined>(undefined);
  const chosenIn = (article: FullArticle | undefined, picked = choice): number => (article && picked?.articleId === article.id ? picked.index : 0);

  // The enclosure the next key acts on, or a line saying there is none.
  const target = () => {
    const article = openArticleNow();
    const enclosures = article ? enclosuresOf(article) : [];
    const index = chosenIn(article, choiceNow());
    if (!article || !enclosures[index]) {
      say({kind: 'error', text: 'this article has no enclosure'});
      return undefined;
    }
    return {article, enclosures, index, label: enclosures.length > 1 ? `enclosure ${index + 1}/${enclosures.length}` : 'enclosure'};
  };

  const next = () => {
    const found = target();
    if (!found) return;
    const index = (found.index + 1) % found.enclosures.length;
    setChoice({articleId: found.article.id, index});
    say({kind: 'info', text: `enclosure ${index + 1}/${found.enclosures.length}: ${found.enclosures[index]!.url}`});
  };

  const open = async () => {
    const found = target();
    if (!found) return;
    const {url} = found.enclosures[found.index]!;
    const outcome = await openLink(url);
    say({kind: 'info', text: outcome.opened ? `opened ${found.label} in ${outcome.command}: ${url}` : `${found.label}: ${url} (${outcome.reason})`});
  };

  // Only a web link goes to the clipboard, and as the URL parser writes it: a control character
  // in a stored URL would otherwise be pasted into the user's shell.
  const copy = () => {
    const found = target();
    if (!found) return;
    const url = httpLink(found.enclosures[found.index]!.url);
    if (!url) return say({kind: 'error', text: `${found.label}: not a web link, not copied`});
    writeClipboard(stdout, url);
    say({kind: 'info', text: `copied ${found.label} URL to the clipboard (OSC 52): ${url}`});
  };

  return {
    /** The chosen enclosure of this article, as the last frame shows it. */
    chosenIn: (article: FullArticle | undefined) => chosenIn(article),
    next,
    open,
    copy,
  };
}
