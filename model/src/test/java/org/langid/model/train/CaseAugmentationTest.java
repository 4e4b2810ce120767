package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.langid.model.TestConfigs;
import org.langid.text.Alphabet;

class CaseAugmentationTest {

    private static final List<String> LANGUAGES = List.of("en", "de");
    private static final String[] TEXTS = {"Das ist ein Test", "it's 42; yes! OK", "Ceci n'est pas. ", "THE END, really."};

    private static LabelledWindows windows(int copies) {
        char[] symbols = new char[copies * TEXTS.length * 16];
        int[] labels = new int[copies * TEXTS.length];
        for (int i = 0; i < labels.length; i++) {
            System.arraycopy(Alphabet.SEED.encode(TEXTS[i % TEXTS.length]), 0, symbols, i * 16, 16);
            labels[i] = i % 2;
        }
        return new LabelledWindows(symbols, labels, 16, LANGUAGES);
    }

    private static String[] texts(LocalSteps.Batch batch) {
        int[] symbols = batch.windows().reshape(-1).toIntVector();
        String[] texts = new String[(int) batch.windows().size(0)];
        for (int row = 0; row < texts.length; row++) {
            StringBuilder text = new StringBuilder();
            for (int j = 0; j < 16; j++) {
                text.append(Alphabet.SEED.symbolAt(symbols[row * 16 + j]));
            }
            texts[row] = text.toString();
        }
        return texts;
    }

    private static int[] identity(int n) {
        return IntStream.range(0, n).toArray();
    }

    @Test
    void everyChangedWindowIsAllCapitalsOrAllLowerCaseAndKeepsItsLabel() {
        LabelledWindows data = windows(250);
        int n = data.size();
        LocalSteps.Batch batch = LocalSteps.Batch.of(data, identity(n), 0, n, new CaseAugmentation(1.0, 7, Alphabet.SEED), 3);
        String[] texts = texts(batch);
        int upper = 0;
        int lower = 0;
        for (int i = 0; i < n; i++) {
            String original = TEXTS[i % TEXTS.length];
            if (texts[i].equals(original.toUpperCase())) {
                upper++;
            } else if (texts[i].equals(original.toLowerCase())) {
                lower++;
            } else {
                throw new AssertionError("window " + i + " became '" + texts[i] + "' from '" + original + "'");
            }
        }
        // Half each, drawn: 1,000 windows put each count near 500.
        assertTrue(upper > 400 && lower > 400, upper + " upper, " + lower + " lower");
        assertArrayEquals(data.labels(), batch.labels().toIntVector());
    }

    @Test
    void changesAboutTheGivenShareAndNothingAtZero() {
        LabelledWindows data = windows(2500);
        int n = data.size();
        int[] order = identity(n);
        String[] plain = texts(LocalSteps.Batch.of(data, order, 0, n));
        assertArrayEquals(plain, texts(LocalSteps.Batch.of(data, order, 0, n, CaseAugmentation.NONE, 5)));
        String[] some = texts(LocalSteps.Batch.of(data, order, 0, n, new CaseAugmentation(0.2, 7, Alphabet.SEED), 5));
        long changed = IntStream.range(0, n).filter(i -> !some[i].equals(plain[i])).count();
        // 10,000 windows at 0.2: 2,000 expected, standard deviation 40 (every text here has
        // letters of both cases, so each drawn window changes).
        assertTrue(changed > 1850 && changed < 2150, changed + " of " + n + " changed");
    }

    @Test
    void theDrawIsFixedBySeedStepAndWindowSoARerunStepSeesTheSameBatch() {
        LabelledWindows data = windows(100);
        int n = data.size();
        int[] order = identity(n);
        CaseAugmentation augmentation = new CaseAugmentation(0.5, 11, Alphabet.SEED);
        String[] first = texts(LocalSteps.Batch.of(data, order, 0, n, augmentation, 9));
        assertArrayEquals(first, texts(LocalSteps.Batch.of(data, order, 0, n, new CaseAugmentation(0.5, 11, Alphabet.SEED), 9)));
        assertFalse(java.util.Arrays.equals(first, texts(LocalSteps.Batch.of(data, order, 0, n, augmentation, 10))),
                "another step draws other windows");
        assertFalse(java.util.Arrays.equals(first, texts(LocalSteps.Batch.of(data, order, 0, n, new CaseAugmentation(0.5, 12, Alphabet.SEED), 9))),
                "another seed draws other windows");
        // The same window drawn at the same step changes the same way wherever it sits in the batch.
        int[] reversed = IntStream.range(0, n).map(i -> n - 1 - i).toArray();
        String[] backwards = texts(LocalSteps.Batch.of(data, reversed, 0, n, augmentation, 9));
        for (int i = 0; i < n; i++) {
            assertEquals(first[n - 1 - i], backwards[i]);
        }
    }

    @Test
    void symbolsWithoutCaseStay() {
        char[] symbols = Alphabet.SEED.encode("0123456789 .,;'!");
        LabelledWindows data = new LabelledWindows(symbols, new int[] {0}, 16, LANGUAGES);
        LocalSteps.Batch batch = LocalSteps.Batch.of(data, new int[] {0}, 0, 1, new CaseAugmentation(1.0, 1, Alphabet.SEED), 0);
        assertEquals("0123456789 .,;'!", texts(batch)[0]);
    }

    @Test
    void refusesAShareOutsideZeroToOne() {
        assertThrows(IllegalArgumentException.class, () -> new CaseAugmentation(1.5, 1, Alphabet.SEED));
        assertThrows(IllegalArgumentException.class, () -> new CaseAugmentation(Double.NaN, 1, Alphabet.SEED));
        TrainConfig train = TestConfigs.training();
        train.caseAugmentation = -0.1;
        assertNotEquals(List.of(), train.problems());
    }
}
