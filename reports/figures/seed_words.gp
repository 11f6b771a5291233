# seed_words.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot seed_words.gp` remakes seed_words.png and seed_words.svg from seed_words.dat.
if (!exists("outstem")) outstem = "seed_words"
set encoding utf8
set title "Randomness consumed after each token, one seed for all" noenhanced
set xlabel "tokens drawn (step)" noenhanced
set ylabel "random bits consumed (log scale)" noenhanced
set grid back lc rgb '#dddddd'
set key bottom right box opaque noenhanced
set logscale y
set format y '10^{%L}'
set xrange [0.5:20.5]
set xtics 1,1,20
set terminal pngcairo size 1000,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
pts = "1 6 4 8 10 12 14 2 3"
plot for [i=2:7] 'seed_words.dat' using 1:i with linespoints lw 2 pointtype int(word(pts, i-1)) pointsize (3.2-0.4*i) dashtype i title columnheader(i)
unset output
set terminal svg size 1000,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
pts = "1 6 4 8 10 12 14 2 3"
plot for [i=2:7] 'seed_words.dat' using 1:i with linespoints lw 2 pointtype int(word(pts, i-1)) pointsize (3.2-0.4*i) dashtype i title columnheader(i)
unset output
