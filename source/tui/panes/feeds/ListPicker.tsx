import React, {useEffect, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {ReaderService} from '../../../feeds/contracts.js';
import type {List} from '../../../feeds/types.js';
import {describeError} from '../../../core/errors.js';
import {useKeypress} from '../../hooks/useKeypress.js';
import {useKeyState} from '../../hooks/useKeyState.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {Command, matchesCommand} from '../../key/keyBindings.js';
import {keyLine} from '../../key/keyTable.js';
import {useTextInput} from '../../hooks/useTextInput.js';
import {InputLine} from '../../components/InputLine.js';
import {listWindowStart} from '../../layouts/listWindow.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import {shownList} from '../../text/shown.js';
import {plural} from '../../../text/plural.js';

type Loaded = {state: 'loading'} | {state: 'failed'; error: string} | {state: 'ready'; lists: List[]; savedIn: Set<number>};

/**
 * `l`: the lists to save the article to; Enter saves it, or takes it out of a list that has it
 * (✓); the last row makes a new private list. It holds every key while open, so `q` closes it.
 */
export function ListPicker({
  reader,
  articleId,
  articleTitle,
  focused,
  width,
  height,
  onDone,
  onClose,
}: {
  reader: ReaderService;
  articleId: number;
  articleTitle: string;
  focused: boolean;
  width: number;
  height: number;
  onDone: (outcome: {ok: boolean; text: string}) => void;
  onClose: () => void;
}): React.JSX.Element {
  const [loaded, setLoaded] = useState<Loaded>({state: 'loading'});
  // `j` Enter in one read toggles the list `j` reached.
  const [selected, selectedNow, setSelected] = useKeyState(0);

  useEffect(() => {
    let live = true;
    Promise.all([reader.listLists(), reader.getArticle(articleId)]).then(
      ([lists, article]) => live && setLoaded({state: 'ready', lists: lists.map(shownList), savedIn: new Set(article.listIds)}),
      (error: unknown) => live && setLoaded({state: 'failed', error: toTerminalLine(describeError(error))}),
    );
    return () => {
      live = false;
    };
  }, [reader, articleId]);

  const lists = loaded.state === 'ready' ? loaded.lists : [];
  // The row after the lists starts a new (private) list, its title typed in the one text input.
  // Whether it is being named is read through a ref: Enter then typing before the next frame types the title.
  const [naming, setNamingState] = useState(false);
  const namingRef = useRef(false);
  const setNaming = (next: boolean) => {
    namingRef.current = next;
    setNamingState(next);
  };
  const title = useTextInput(
    (text) => {
      if (!text.trim()) return false;
      void createAndSave(text.trim());
    },
    {singleLine: true},
  );
  const createAndSave = async (title: string) => {
    onClose();
    try {
      const list = await reader.createList(title, 'private');
      await reader.addToList(list.id, articleId);
      onDone({ok: true, text: `saved to new list "${list.title}"`});
    } catch (error) {
      onDone({ok: false, text: `new list "${title}" failed: ${describeError(error)}`});
    }
  };
  const toggle = async (list: List, saved: boolean) => {
    onClose();
    try {
      if (saved) await reader.removeFromList(list.id, articleId);
      else await reader.addToList(list.id, articleId);
      onDone({ok: true, text: `${saved ? 'removed from' : 'saved to'} "${list.title}"`});
    } catch (error) {
      onDone({ok: false, text: `${saved ? 'remove from' : 'save to'} "${list.title}" failed: ${describeError(error)}`});
    }
  };

  useKeypress(
    (press) => {
      if (namingRef.current) {
        if (press.name === 'escape') setNaming(false);
        else title.handle(press);
        return true;
      }
      if (matchesCommand(Command.PICKER_CLOSE, press)) onClose();
      else if (matchesCommand(Command.UP, press)) setSelected(Math.max(0, selectedNow() - 1));
      else if (matchesCommand(Command.DOWN, press)) setSelected(Math.max(0, Math.min(lists.length, selectedNow() + 1)));
      else if (matchesCommand(Command.EXPAND, press) && loaded.state === 'ready') {
        const list = lists[selectedNow()];
        if (list) void toggle(list, loaded.savedIn.has(list.id));
        else {
          title.set('');
          setNaming(true);
        }
      }
      // Ctrl-C is handled above every overlay; everything else stops here.
      return true;
    },
    {isActive: focused, priority: KeyPriority.INPUT},
  );

  const rows = Math.max(1, height - 2);
  // One row more than the lists: the "new list" row.
  const start = listWindowStart(selected, lists.length + 1, rows);
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">
        Save “{toTerminalLine(articleTitle)}” to a list <Text dimColor>({keyLine('global', 'picker', {hints: {[Command.EXPAND]: 'save or remove'}})})</Text>
      </Text>
      {loaded.state === 'loading' && <Text dimColor>loading lists…</Text>}
      {loaded.state === 'failed' && (
        <Text color="red" wrap="truncate-end">
          ! {loaded.error}
        </Text>
      )}

      {loaded.state === 'ready' &&
        lists.slice(start, start + rows).map((list, offset) => {
          const isSelected = start + offset === selected;
          const saved = loaded.savedIn.has(list.id);
          return (
            <Box key={list.id} height={1}>
              <Text inverse={isSelected} wrap="truncate-end">
                {(isSelected ? '▸ ' : '  ') + (saved ? '✓ ' : '  ') + list.title}
                <Text dimColor>{`  ${list.visibility} · ${plural(list.itemCount, 'item')}`}</Text>
              </Text>
            </Box>
          );
        })}
      {loaded.state === 'ready' && start + rows > lists.length && (
        <Box height={1}>
          <Text inverse={selected === lists.length && !naming} wrap="truncate-end">
            {selected === lists.length ? '▸ ' : '  '}
            {!naming ? (
              <Text dimColor>+ new private list…</Text>
            ) : (
              <>
                <Text color="cyan">title: </Text>
                <InputLine state={title.state} />
                <Text dimColor> enter create and save · esc back</Text>
              </>
            )}
          </Text>
        </Box>
      )}
    </Box>
  );
}
