import {useKeypress} from '../../hooks/useKeypress.js';
import {Command, matchesCommand, type Keypress} from '../../key/keyBindings.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {isYes} from './LinePrompt.js';
import type {FeedsController} from './useFeeds.js';

/**
 * The Feeds pane's keys, mapped to the controller's actions. Every handler reads the controller's
 * `…Now()` state, never the last frame's: keys of one read (`jr`, `j` Enter, `a` and a URL) are
 * handled before React renders, each after what the key before it did.
 */
export function useFeedKeys(feeds: FeedsController, {focused, readerPage}: {focused: boolean; readerPage: () => {rows: number; maxScroll: number}}): void {
  // The add and snooze prompts and the yes/no question: every key is theirs (q types a q).
  useKeypress(
    (press) => {
      const overlay = feeds.overlayNow();
      if (overlay?.kind === 'confirm') feeds.answer(isYes(press));
      else if (overlay?.kind === 'add' || overlay?.kind === 'snooze') {
        if (press.name === 'escape') feeds.closeOverlay();
        else feeds.prompt.handle(press);
      } else return false;
      return true;
    },
    {isActive: focused, priority: KeyPriority.INPUT},
  );

  const listKeys = (press: Keypress): boolean => {
    const column = feeds.columnNow();
    const move = column === 'feeds' ? feeds.moveFeed : feeds.moveArticle;
    const article = column === 'articles' ? feeds.articleNow() : undefined;
    const feed = feeds.feedNow();
    const filter = feeds.filterNow();
    if (matchesCommand(Command.UP, press)) move(-1);
    else if (matchesCommand(Command.DOWN, press)) move(1);
    else if (matchesCommand(Command.PAGE_UP, press)) move(-10);
    else if (matchesCommand(Command.PAGE_DOWN, press)) move(10);
    // Tab walks feeds → articles → next pane; Shift-Tab walks back.
    else if (matchesCommand(Command.NEXT_PANE, press) && column === 'feeds') feeds.setColumn('articles');
    else if (matchesCommand(Command.PREV_PANE, press) && column === 'articles') feeds.setColumn('feeds');
    else if (press.name === 'right' && column === 'feeds') feeds.setColumn('articles');
    else if (press.name === 'left' && column === 'articles') feeds.setColumn('feeds');
    else if (matchesCommand(Command.EXPAND, press) && column === 'feeds') feeds.setColumn('articles');
    else if (matchesCommand(Command.EXPAND, press) && article) void feeds.openArticle(article);
    else if (matchesCommand(Command.FILTER, press)) filter.open();
    else if (matchesCommand(Command.FEEDS_TOGGLE_READ, press) && article) void feeds.toggleRead(article);
    else if (matchesCommand(Command.FEEDS_SNOOZE, press) && article) feeds.askSnooze(article);
    else if (matchesCommand(Command.FEEDS_SAVE_TO_LIST, press) && article) feeds.askList(article);
    else if (matchesCommand(Command.FEEDS_OPEN_LINK, press) && article) void feeds.openArticleLink(article);
    else if (matchesCommand(Command.FEEDS_MARK_FEED_READ, press) && feed) feeds.askMarkFeedRead(feed);
    else if (matchesCommand(Command.FEEDS_ADD, press)) feeds.askAdd();
    else if (matchesCommand(Command.FEEDS_REMOVE, press) && column === 'feeds' && feed) feeds.askRemoveFeed(feed);
    else if (matchesCommand(Command.FEEDS_REFRESH, press) && feed) void feeds.refreshFeed(feed);
    else if (matchesCommand(Command.FEEDS_GATEWAY, press)) feeds.openSide('gateway');
    else if (matchesCommand(Command.FEEDS_INGESTORS, press)) feeds.openSide('ingestors');
    else if (matchesCommand(Command.BACK, press) && (filter.text || feeds.message)) {
      if (filter.text) filter.clear();
      else feeds.say(undefined);
    } else return false;
    return true;
  };

  const readerKeys = (press: Keypress): boolean => {
    const {rows, maxScroll} = readerPage();
    const article = feeds.openArticleNow();
    if (matchesCommand(Command.UP, press)) feeds.scrollBy(-1, maxScroll);
    else if (matchesCommand(Command.DOWN, press)) feeds.scrollBy(1, maxScroll);
    else if (matchesCommand(Command.PAGE_UP, press)) feeds.scrollBy(-rows, maxScroll);
    else if (matchesCommand(Command.PAGE_DOWN, press) || matchesCommand(Command.FEEDS_PAGE_DOWN, press)) feeds.scrollBy(rows, maxScroll);
    else if (press.name === 'home') feeds.scrollTo(0);
    else if (press.name === 'end') feeds.scrollTo(maxScroll);
    else if (matchesCommand(Command.BACK, press) || matchesCommand(Command.QUIT, press)) feeds.closeReader();
    else if (matchesCommand(Command.FEEDS_NEXT_UNREAD, press)) feeds.nextUnread();
    else if (matchesCommand(Command.FEEDS_TOGGLE_READ, press) && article) void feeds.toggleRead(article);
    else if (matchesCommand(Command.FEEDS_SNOOZE, press) && article) feeds.askSnooze(article);
    else if (matchesCommand(Command.FEEDS_SAVE_TO_LIST, press) && article) feeds.askList(article);
    else if (matchesCommand(Command.FEEDS_OPEN_LINK, press)) void feeds.openArticleLink(article);
    else if (matchesCommand(Command.FEEDS_OPEN_ENCLOSURE, press)) void feeds.enclosures.open();
    else if (matchesCommand(Command.FEEDS_COPY_ENCLOSURE, press)) feeds.enclosures.copy();
    else if (matchesCommand(Command.FEEDS_NEXT_ENCLOSURE, press)) feeds.enclosures.next();
    else return false;
    return true;
  };

  useKeypress(
    (press) => {
      // The gateway and ingestor views take their own keys (and hand back what they leave).
      if (feeds.sideNow()) return false;
      // A picker asked for and not drawn yet: the keys are its, not the list's under it.
      if (feeds.overlayNow()) return true;
      return feeds.readingNow() ? readerKeys(press) : listKeys(press);
    },
    {isActive: focused, priority: KeyPriority.PANE},
  );
}
