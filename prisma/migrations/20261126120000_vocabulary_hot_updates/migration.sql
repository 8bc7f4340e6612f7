-- Room on the vocabulary's pages for its counts to change in place: every import batch adds to the
-- counts of its words (lis_collect_words), and an update that finds no room on its page writes the
-- row elsewhere and a new entry in both indexes, the trigram GiST one included (half the updates of a
-- 1M import did). With half of each page free the update stays on its page (HOT) and touches no
-- index: the upsert of one batch's 4,928 distinct words 77-91 -> 29 ms (a random 5,000-record batch
-- into the 1M bench catalogue). The table is small (20,825 words at 1M records). Existing pages get
-- the room as vacuum frees them; new ones are filled to half. No data changes.
ALTER TABLE "imagery_words" SET (fillfactor = 50);
