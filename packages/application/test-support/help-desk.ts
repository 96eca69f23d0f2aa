import { ticketStates, type Ticket } from '@support/domain';
import { aTicket, minutes, T0, userId } from './mothers.js';
import { aFilter, wordsOf } from './reference-search.js';

// A small help desk whose tickets make every search rule matter: ties on every sort key,
// missing closed_at, closed tickets without one, deleted tickets that still match, text that
// only matches once folded (case, accents, ß, ligatures, full-width letters), and subjects
// whose code-point order differs from UTF-16 order or from a human collation.

const ada = { customerId: 1, customerName: 'Ada Lovelace' };
const emile = { customerId: 2, customerName: 'Émile Zola' };
const grace = { customerId: 3, customerName: 'Grace Hopper' };
const at = (n: number): number => T0 + minutes(n);

export const helpDesk: readonly Ticket[] = [
  aTicket({ id: 1, ...ada, subject: 'Printer on fire', summary: 'Smoke from the paper tray', priority: 'urgent', createdAt: at(1), updatedAt: at(5) }),
  aTicket({ id: 2, ...emile, subject: 'printer jams', summary: 'Paper jam again. Café au lait spilled', state: 'pending', createdAt: at(2), updatedAt: at(3) }),
  aTicket({ id: 3, ...ada, subject: 'Café machine broken', summary: 'Naïve question: who fixes the CAFE machine?', state: 'closed', closedAt: at(10), priority: 'high', createdAt: at(3), updatedAt: at(10) }),
  aTicket({ id: 4, ...grace, subject: 'Zebra printer labels', state: 'closed', closedAt: at(20), priority: 'low', createdAt: at(3), updatedAt: at(20) }),
  aTicket({ id: 5, ...emile, subject: 'Ärger mit dem Drucker', summary: 'Straße gesperrt', createdAt: at(4), updatedAt: at(5) }),
  aTicket({ id: 6, ...grace, subject: 'printer jams', summary: 'Same as yesterday', priority: 'high', createdAt: at(5), updatedAt: at(6) }),
  aTicket({ id: 7, ...ada, subject: '😀 emoji subject', summary: 'printer smiles', state: 'pending', priority: 'urgent', createdAt: at(6), updatedAt: at(6) }),
  aTicket({ id: 8, ...emile, subject: 'ﬁle share down', summary: 'FILE server', state: 'closed', closedAt: at(10), createdAt: at(7), updatedAt: at(10) }),
  aTicket({ id: 9, ...ada, subject: 'Zebra printer labels', state: 'closed', closedAt: at(30), deletedAt: at(31), createdAt: at(8), updatedAt: at(31) }),
  aTicket({ id: 10, ...grace, subject: 'a', summary: 'printer fire', state: 'closed', closedAt: at(30), priority: 'urgent', createdAt: at(9), updatedAt: at(30) }),
  aTicket({ id: 11, ...ada, subject: 'B before a in code points', priority: 'low', createdAt: at(10), updatedAt: at(11) }),
  aTicket({ id: 12, ...emile, subject: '\uFF21 full-width A', summary: 'ｐｒｉｎｔｅｒ', state: 'pending', createdAt: at(11), updatedAt: at(12) }),
  aTicket({ id: 13, ...grace, subject: 'Deleted but recently closed', state: 'closed', closedAt: at(40), deletedAt: at(41), createdAt: at(12), updatedAt: at(41) }),
  aTicket({ id: 14, ...grace, subject: 'é sorts after z', priority: 'high', createdAt: at(13), updatedAt: at(13) }),
  aTicket({ id: 15, ...ada, subject: 'Printer on fire', summary: 'closed without a closing time', state: 'closed', closedAt: null, createdAt: at(14), updatedAt: at(14) }),
  aTicket({ id: 16, ...emile, subject: '\uFFFD after the BMP? no: \u{1F600} is', state: 'open', closedAt: at(20), createdAt: at(15), updatedAt: at(15) }),
];

/** Filters over the help desk, each with a name for the test titles. */
export const helpDeskFilters = [
  ['every live ticket', aFilter()],
  ['an empty state list', aFilter({ states: [] })],
  ['state open', aFilter({ states: ['open'] })],
  ['states pending and open', aFilter({ states: ['pending', 'open'] })],
  ['state closed', aFilter({ states: ['closed'] })],
  ['every state listed', aFilter({ states: [...ticketStates] })],
  ['customer 1', aFilter({ customerId: userId(1) })],
  ['customer 2, open or pending', aFilter({ customerId: userId(2), states: ['open', 'pending'] })],
  ['a customer without tickets', aFilter({ customerId: userId(99) })],
  ['q=printer', aFilter({ words: wordsOf('printer') })],
  ['q=Printer FIRE (two words)', aFilter({ words: wordsOf('Printer FIRE') })],
  ['q=CAFÉ (folded)', aFilter({ words: wordsOf('CAFÉ') })],
  ['q=naive cafe', aFilter({ words: wordsOf('naive cafe') })],
  ['q=STRASSE (ß folded)', aFilter({ words: wordsOf('STRASSE') })],
  ['q=file (ligature)', aFilter({ words: wordsOf('file') })],
  ['q=zola (customer name)', aFilter({ words: wordsOf('zola') })],
  ['q=xylophone (nobody)', aFilter({ words: wordsOf('xylophone') })],
  ['q=printer, state open', aFilter({ words: wordsOf('printer'), states: ['open'] })],
  ['q=printer, customer 3, closed', aFilter({ words: wordsOf('printer'), customerId: userId(3), states: ['closed'] })],
  ['recently closed (closed since minute 10)', aFilter({ states: ['closed'], closedSince: at(10) })],
  ['closed_at since minute 20, any state', aFilter({ closedSince: at(20) })],
  ['closed since after everything', aFilter({ closedSince: at(1000) })],
  ['q=printer, closed since minute 20', aFilter({ words: wordsOf('printer'), closedSince: at(20) })],
] as const;
